# syntax=docker/dockerfile:1
# loganalyze as a static binary in a distroless image (SPEC §7):
#
#   docker build -t loganalyze .
#   docker run --rm -v /data/logs:/data/logs:ro loganalyze /data/logs/
#
# The build stage compiles without cgo, so the binary needs no C library;
# the final stage holds that binary and nothing else, and runs as the
# image's nonroot user (65532). With the repository's .git in the build
# context the binary records its commit (loganalyze --version).

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/loganalyze ./cmd/loganalyze \
 && /out/loganalyze --version

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/loganalyze /usr/local/bin/loganalyze
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/loganalyze"]
CMD ["--help"]
