# One image for every service (simcloud, heat-lite, magnum-lite); docker-compose.yml picks
# the command of each container.
FROM python:3.11-slim
WORKDIR /src
COPY . /src
RUN pip install --no-cache-dir -e /src
EXPOSE 8004 8080 9511
CMD ["heat-lite-all"]
