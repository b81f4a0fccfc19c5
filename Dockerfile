# The specbridge sidecar (`specbridge serve`) as a container image; docker-compose.yml builds it.
#
#   docker build -t specbridge:dev .
#   docker run --rm specbridge:dev --help
#
# Stage 1 builds a static binary (no cgo: every dependency is pure Go, including the HDFS client the
# fault analyzer's store uses); stage 2 is a small Alpine runtime, chosen over a distroless image
# because its busybox `wget` lets a healthcheck call /healthz and its `sh` lets docker-compose.yml
# create the shared token without another image.
FROM golang:1.26 AS build
# The image pins its own toolchain (GOTOOLCHAIN=local); let go.mod's go line fetch a newer one if needed.
ENV GOTOOLCHAIN=auto
WORKDIR /src
# Modules first, so that a source change does not download them again.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" \
      -o /out/specbridge ./cmd/specbridge

FROM alpine:3.22
# A fixed non-root uid/gid; /var/lib/specbridge is created here and owned by it, so that a named
# volume mounted there starts out writable by the sidecar (Docker copies the owner into a new volume).
RUN addgroup -S -g 10001 specbridge \
 && adduser -S -D -H -u 10001 -G specbridge -s /sbin/nologin specbridge \
 && mkdir -p /var/lib/specbridge \
 && chown specbridge:specbridge /var/lib/specbridge
COPY --from=build /out/specbridge /usr/local/bin/specbridge
USER 10001:10001
EXPOSE 7420
VOLUME ["/var/lib/specbridge"]
ENTRYPOINT ["/usr/local/bin/specbridge"]
CMD ["serve", "--listen", ":7420", "--token-file", "/etc/specbridge/token", "--data-dir", "/var/lib/specbridge"]
