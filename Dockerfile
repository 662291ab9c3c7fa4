# One image for every process of the project (worker, bridge, case API, codec server; the simulator too); the
# command chooses. Multi-stage: the build stage compiles TypeScript and prebuilds the workflow
# bundle; the runtime stage holds production dependencies and dist/ only, and runs as `node`.
# Build: docker build -t verification-journeys .   Run: see compose.yaml and docs/deployment.md.

FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The npm workspace's package (the case API client): npm ci needs each workspace's package.json.
COPY packages/case-api-client/package.json packages/case-api-client/
# --ignore-scripts: the postinstall provisions a Temporal CLI for local development, not needed here.
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
# Every folder tsconfig.build.json includes (.ci/image-build replays these lines and fails on a missing one).
COPY workflows workflows
COPY activities activities
COPY case-api case-api
COPY case-events case-events
COPY case-file case-file
COPY client client
COPY codec codec
COPY config config
COPY provider provider
COPY worker worker
COPY webhook-bridge webhook-bridge
COPY simulator simulator
COPY cli cli
RUN npm run build

FROM node:20-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/case-api-client/package.json packages/case-api-client/
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist dist
# State that must outlive a container (the bridge's outage spool, generated keys) goes to /app/.data:
# mount a volume there. The node user owns it.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 8470 8888 9464
CMD ["node", "dist/worker/main.js"]
