# Quire in a container: the server and its built web client. See README, "Deploying with Docker".
# Every stage is Debian bookworm, so the native module compiled in `deps` (better-sqlite3) runs in the last one.

# --- npm 11, which reads package.json's allowScripts (the packages that may run install scripts), and the manifests.
FROM node:20-bookworm AS manifests
RUN npm install --global npm@11 --no-audit --no-fund
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/api/package.json packages/api/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/

# --- build: every dependency (vite, typescript…), then `npm run build`: the contract, the server, the web client.
FROM manifests AS build
RUN npm ci
COPY . .
RUN npm run build

# --- deps: only what the server runs with: the production dependencies of the server and the contract (no React,
# no MUI: the web client is served already built).
FROM manifests AS deps
RUN npm ci --omit=dev --workspace @quire/server --workspace @quire/api

# --- runtime: the built server, its dependencies and the built web client, run by a user without rights.
FROM node:20-bookworm-slim
# MALLOC_ARENA_MAX: glibc's per-thread memory pools otherwise add ~30 MB to the peak (README: Memory). The server sets
# the same limit itself at start (mallopt); set here, it also covers what runs before the server's code.
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    QUIRE_DATA_DIR=/data \
    QUIRE_PORT=25600
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=deps /app/packages/server/node_modules packages/server/node_modules
# The version (/actuator/info) is the root package.json's; the releases screen reads CHANGELOG.md.
COPY --from=build /app/package.json /app/CHANGELOG.md ./
COPY --from=build /app/packages/api/package.json packages/api/
COPY --from=build /app/packages/api/dist packages/api/dist
COPY --from=build /app/packages/server/package.json packages/server/
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/packages/web/dist packages/web/dist
# A new volume mounted on /data starts as a copy of the image's /data, owned by the user, so the server can write it.
RUN mkdir -p /data/logs && chown -R node:node /data
USER node
VOLUME /data
EXPOSE 25600
# /actuator/health answers without login: 200 {"status":"UP"} while the database and the data dir answer, else 503.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + process.env.QUIRE_PORT + (process.env.QUIRE_CONTEXT_PATH || '') + '/actuator/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# What `npm start` runs once the build exists; without npm in between, the server itself receives SIGTERM and stops
# cleanly (README: Shutting down).
CMD ["node", "packages/server/dist/main.js"]
