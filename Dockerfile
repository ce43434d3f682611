# Siteline image: Node 24 runs the TypeScript sources directly (type stripping); no build step.
FROM node:24-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY bin ./bin
COPY src ./src
COPY schema ./schema
USER node
EXPOSE 3000
CMD ["node", "src/main.ts"]
