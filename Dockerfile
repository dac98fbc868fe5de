# European War bot: a small image that runs `python -m bot` as a non-root user.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite:////data/european_war.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY render ./render
COPY ai ./ai
COPY bot ./bot
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 bot \
    && mkdir -p /data && chown bot:bot /data

USER bot
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
