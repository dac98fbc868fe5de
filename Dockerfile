# European War bot: a small image that runs `european-war-bot` as a non-root user, with the
# exact, hash-checked dependencies of requirements/bot.txt (the lock; see README).
# The base is pinned to a full version; pin its digest too where the image is built.
FROM python:3.11.15-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite:////data/european_war.db \
    HEALTH_FILE=/tmp/european-war-health.json \
    METRICS_HOST=0.0.0.0

# tini as PID 1: forwards SIGTERM to the bot (which stops in about 2 s) and reaps
# worker processes
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# the dependencies first, in their own layer: a change to the code alone reuses it
COPY requirements/bot.txt ./requirements/
RUN pip install --no-cache-dir -r requirements/bot.txt
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY render ./render
COPY ai ./ai
COPY service ./service
COPY bot ./bot
COPY console ./console
RUN pip install --no-cache-dir --no-deps . \
    && useradd --create-home --uid 10001 bot \
    && mkdir -p /data && chown bot:bot /data

USER bot
VOLUME ["/data"]
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.health"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["european-war-bot"]
