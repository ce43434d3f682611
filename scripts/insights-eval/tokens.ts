// Answer size in tokens: the MCP tools' text copy is the compact JSON of the body REST returns for the same inputs
// (src/mcp/tools/tool-result.ts), counted with a GPT-style tokenizer (o200k_base, the encoding of OpenAI's current
// models; other models' tokenizers differ by some percent either way).
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

export const TOKENIZER = 'o200k_base via gpt-tokenizer';

export function tokensOf(body: unknown): number {
  return countTokens(JSON.stringify(body));
}

/** The insight tools and the REST path each answers at its defaults (only the project given). */
export const DEFAULT_TOOL_PATHS = {
  explain_change: (project: string) => `/api/v1/metrics/${project}/insights/changes`,
  find_anomalies: (project: string) => `/api/v1/metrics/${project}/insights/anomalies`,
  find_search_opportunities: (project: string) => `/api/v1/metrics/${project}/insights/search-opportunities`,
} as const;
