# Image for web, worker, beat and migrate in compose.yaml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

COPY requirements-lock.txt ./
RUN pip install --no-cache-dir --require-hashes -r requirements-lock.txt

COPY . .
RUN pip install --no-cache-dir --no-deps --no-build-isolation -e . \
    && DEBUG=true python manage.py collectstatic --noinput \
    && useradd --system --home /app canfield
USER canfield

EXPOSE 8000
# The ASGI app (REST API, pages and event streams) under gunicorn with uvicorn workers.
# canfield_site.wsgi:application still serves everything but the event streams.
CMD ["gunicorn", "canfield_site.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker", "--bind", "0.0.0.0:8000"]
