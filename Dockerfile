# arbiterd in a container: built on Debian 12 with the project's own scripts,
# run on a slim Debian 12 with only the shared libraries it needs.
# docker-compose.yml runs it next to PostgreSQL.
FROM debian:bookworm AS build
WORKDIR /src
COPY . .
RUN scripts/install-deps \
 && cmake -S . -B build -DCMAKE_BUILD_TYPE=Release \
 && cmake --build build -j"$(nproc)" --target arbiterd arbiter

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libgrpc++1.51 libprotobuf32 libpqxx-6.4 \
      libspdlog1.10 libabsl20220623 libssl3 libcpp-httplib0.11 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --create-home --home-dir /var/lib/arbiter arbiter
COPY --from=build /src/build/bin/arbiterd /src/build/bin/arbiter /usr/local/bin/
USER arbiter
WORKDIR /var/lib/arbiter
EXPOSE 50051 8080
# The database comes from ARBITER_DATABASE_URL; the admin token of the first
# start is written to /var/lib/arbiter/admin.token. Plaintext inside the
# container's network (--insecure): publish the port on the host's loopback
# only (docker-compose.yml does), or give --tls-cert and --tls-key. The
# read-only website (public data only) is on port 8080.
ENTRYPOINT ["arbiterd", "--listen", "0.0.0.0:50051", "--insecure", "--http-listen", "0.0.0.0:8080", \
            "--data-dir", "/var/lib/arbiter"]
