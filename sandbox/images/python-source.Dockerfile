# RepoZero source image "python-source" for hosts with a registry (CI builds the same contents offline:
# `repozero images build`, see docs/docker.md): Debian's python3 with venv/ensurepip, faketime, procps.
#   docker build -f sandbox/images/python-source.Dockerfile -t <registry>/repozero-python-source:<tag> .
#   repozero --set 'sandbox.docker_images={python-source="<registry>/repozero-python-source:<tag>"}' ...
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends procps python3 python3-venv faketime ca-certificates \
 && rm -rf /var/lib/apt/lists/* /usr/share/doc /usr/share/man \
 && groupadd -g 1000 sandbox && useradd -u 1000 -g 1000 -d /tmp -s /bin/sh sandbox \
 && mkdir -p /work
ENV PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC HOME=/tmp
USER 1000:1000
WORKDIR /work
LABEL repozero.image=python-source
CMD ["sleep", "infinity"]
