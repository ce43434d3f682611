# Siteline image: Node 24 runs the TypeScript sources directly (type stripping); no build step.
# The same image serves the API and, with another command, the provider sandbox (docker-compose.yml).
FROM node:24.21.0-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY bin ./bin
COPY src ./src
COPY schema ./schema
# DATA_DIR and the sandbox's credentials folder belong to the unprivileged user: a fresh named volume mounted
# there takes this ownership, so the process can write its SQLite file, secret key and demo files.
RUN mkdir -p /data/sandbox-credentials && chown -R node:node /data
ENV DATA_DIR=/data HOST=0.0.0.0 PORT=3000
# One malloc arena, as `npm start` sets: the threads that compile and collect at start no longer each keep arenas
# of freed memory resident (about 10 MiB less idle; docs/operations.md).
ENV MALLOC_ARENA_MAX=1
# Node's compile cache, as `npm start` sets it: the first start keeps each module's stripped TypeScript and V8 code
# there, so a restart never loads the type stripper (about 12 MiB less idle; docs/operations.md).
ENV NODE_COMPILE_CACHE=node_modules/.cache/node-compile
RUN mkdir -p node_modules/.cache/node-compile && chown node:node node_modules/.cache/node-compile
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--max-semi-space-size=4", "src/main.ts"]
