# One image for the API and the workers: `referee` plus gunicorn.
FROM python:3.11-slim
WORKDIR /app
ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
COPY pyproject.toml README.md ./
COPY referee ./referee
COPY arena ./arena
COPY clients ./clients
COPY seeds ./seeds
RUN pip install -e .
EXPOSE 8000
CMD ["gunicorn", "-w", "4", "-k", "gthread", "--threads", "16", "-b", "0.0.0.0:8000", "referee.root:create_app()"]
