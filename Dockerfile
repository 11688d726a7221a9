# One image for every heat-lite service; docker-compose.yml picks the command.
FROM python:3.11-slim
WORKDIR /src
COPY . /src
RUN pip install --no-cache-dir -e /src
EXPOSE 8004
CMD ["heat-lite-all"]
