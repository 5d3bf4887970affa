# One image for the API, the workers and the example bots (docker-compose.yml builds it once,
# as referee:local): `referee` plus gunicorn, run as an unprivileged user.
FROM python:3.11-slim
WORKDIR /app
ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1

# Dependencies first, in a layer of their own: only a change to pyproject.toml rebuilds it,
# not a change to the source.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
 && pip install -r /tmp/requirements.txt

# Then the project itself, a regular install (the game data goes into the package).
COPY README.md setup.py MANIFEST.in ./
COPY seeds ./seeds
COPY docs ./docs
COPY referee ./referee
COPY arena ./arena
COPY clients ./clients
RUN pip install --no-deps . \
 && useradd --create-home --uid 10001 referee

USER referee
EXPOSE 8000
# gevent workers: a held long poll or event stream is a greenlet, not a thread (README)
CMD ["gunicorn", "-c", "python:referee.gunicorn_conf", "-k", "gevent", "-b", "0.0.0.0:8000", "referee.root:create_app()"]
