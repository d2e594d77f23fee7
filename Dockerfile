# Image for web, live, worker, solver, beat and migrate in compose.yaml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

COPY requirements-pip.txt requirements-lock.txt ./
RUN pip install --no-cache-dir --require-hashes -r requirements-pip.txt \
 && pip install --no-cache-dir --require-hashes -r requirements-lock.txt

COPY . .
RUN pip install --no-cache-dir --no-deps --no-build-isolation -e . \
    && DEBUG=true python manage.py collectstatic --noinput \
    && useradd --system --home /app canfield
USER canfield

EXPOSE 8000
# Default: one server for everything, the ASGI app (REST API, pages and event streams)
# under gunicorn with uvicorn workers. compose.yaml runs the image twice instead: web
# (canfield_site.wsgi:application on sync workers: REST API, pages) and live (this
# command: the event streams), behind nginx (deploy/nginx.conf).
CMD ["gunicorn", "canfield_site.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker", "--bind", "0.0.0.0:8000"]
