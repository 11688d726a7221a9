-- Run once by the postgres container on its first start (docker-entrypoint-initdb.d):
-- POSTGRES_DB makes heat's database, these are magnum's and simcloud's.
CREATE DATABASE magnum;
CREATE DATABASE simcloud;
