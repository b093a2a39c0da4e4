#!/bin/sh
# Pins every third-party image by digest, next to its exact version, so that what runs is exactly
# what was tested, and a tag moved or re-pushed upstream changes nothing until this runs again:
#   docker-compose.yml            image: nats:2.14.2-alpine  ->  nats:2.14.2-alpine@sha256:...
#                                 (the defaults of ${MINIO_IMAGE:-...} and the like included)
#   k8s/overlays/prod             an `images:` entry per image, newTag: <tag>@sha256:... (between
#                                 the "pinned by deploy/pin-image-digests.sh" markers)
#
#   deploy/pin-image-digests.sh            # refresh: resolve every digest again and write them
#   deploy/pin-image-digests.sh --check    # exit 1 naming every third-party image without a digest
#
# Refreshing needs the registries (network) and one of crane, skopeo or docker (buildx); run it when
# bumping a version, review the diff, commit. The digest is the one of the multi-platform index.
# Our own images (assistant, assistant-web) are pinned by CI at release (see the overlay).
set -eu
cd "$(dirname "$0")/.."

COMPOSE=docker-compose.yml
OVERLAY=k8s/overlays/prod/kustomization.yaml
BEGIN='  # --- pinned by deploy/pin-image-digests.sh (do not edit by hand) ---'
END='  # --- end of pinned images ---'

digest_of() {
  if command -v crane >/dev/null 2>&1; then crane digest "$1"
  elif command -v skopeo >/dev/null 2>&1; then skopeo inspect --format '{{.Digest}}' "docker://$1"
  elif command -v docker >/dev/null 2>&1; then docker buildx imagetools inspect "$1" --format '{{json .Manifest.Digest}}' | tr -d '"'
  else
    echo "pin-image-digests: needs crane, skopeo or docker (buildx) and network access to the registries" >&2
    exit 2
  fi
}

# Third-party image references of the compose file (the defaults of ${VAR:-image} included; not ours).
compose_refs() {
  sed -n 's/^ *image: *//p' "$COMPOSE" | grep -v 'IMAGE_REPOSITORY' | grep -v '^\*' | sed 's/^\${[A-Z_]*:-\(.*\)}$/\1/'
}

# Third-party image references (name:tag, digest stripped) of the compose file and of the prod render.
compose_images() {
  compose_refs | sed 's/@sha256:.*//' | sort -u
}
k8s_images() {
  kubectl kustomize k8s/overlays/prod | sed -n 's/^ *\(image\|imageName\): *//p' | tr -d '"' | sed 's/@sha256:.*//' |
    grep -v '^registry.example.com/' | sort -u
}

if [ "${1:-}" = "--check" ]; then
  missing=0
  for ref in $(compose_refs); do
    case "$ref" in *@sha256:*) ;; *) echo "docker-compose.yml: $ref has no digest"; missing=1 ;; esac
  done
  for ref in $(kubectl kustomize k8s/overlays/prod | sed -n 's/^ *\(image\|imageName\): *//p' | tr -d '"' | grep -v '^registry.example.com/'); do
    case "$ref" in *@sha256:*) ;; *) echo "k8s/overlays/prod: $ref has no digest"; missing=1 ;; esac
  done
  exit "$missing"
fi

entries=$(mktemp)
trap 'rm -f "$entries"' EXIT
for ref in $( (compose_images; k8s_images) | sort -u); do
  name=${ref%:*}
  tag=${ref##*:}
  digest=$(digest_of "$ref")
  echo "$ref@$digest"
  # docker-compose.yml: the reference, with or without an older digest, gets this one.
  sed -i "s|\([ :-]\)$(printf '%s' "$ref" | sed 's/[.[\*^$|/]/\\&/g')\(@sha256:[0-9a-f]*\)\{0,1\}\([}\"]\{0,1\}\)$|\1$ref@$digest\3|" "$COMPOSE"
  if k8s_images | grep -qx "$ref"; then
    printf '  - name: %s\n    newTag: %s@%s\n' "$name" "$tag" "$digest" >>"$entries"
  fi
done

# The overlay: the block between the markers is replaced (or added at the end of `images:`).
awk -v begin="$BEGIN" -v end="$END" '
  $0 == begin { skip = 1; next }
  $0 == end { skip = 0; next }
  !skip { print }
' "$OVERLAY" >"$OVERLAY.tmp"
awk -v begin="$BEGIN" -v end="$END" -v file="$entries" '
  { print }
  /^images:$/ {
    print begin
    while ((getline line < file) > 0) print line
    print end
  }
' "$OVERLAY.tmp" >"$OVERLAY"
rm -f "$OVERLAY.tmp"
echo "Pinned. Review: git diff $COMPOSE $OVERLAY"
