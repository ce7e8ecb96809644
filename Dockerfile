# umpire: a play-by-email referee. Build: docker build -t umpire .
# Run with a config:   docker run -v $PWD/data:/data -v $PWD/umpire.yaml:/umpire.yaml umpire serve --config /umpire.yaml
# Run the local hub:   docker run -p 1143:1143 -p 1587:1587 -v $PWD/data:/data umpire serve --data /data --hub-imap 0.0.0.0:1143 --hub-smtp 0.0.0.0:1587
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /umpire ./cmd/umpire

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /umpire /usr/local/bin/umpire
WORKDIR /data
VOLUME /data
ENTRYPOINT ["/usr/local/bin/umpire"]
CMD ["serve", "--data", "/data"]
