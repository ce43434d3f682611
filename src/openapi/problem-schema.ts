// The RFC 9457 problem body every non-2xx answer carries, as a zod schema mirroring src/http/responses.ts.
import * as z from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../errors/app-error.ts';

const CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const ProblemSchema = z
  .looseObject({
    type: z.string().describe('/api/v1/errors#<code>.').meta({ example: '/api/v1/errors#invalid_parameter' }),
    title: z.string().describe('Short, fixed text per code.'),
    status: z.int().describe('The HTTP status.'),
    detail: z.string().describe('What went wrong with this request, quoting the offending input.'),
    code: z.enum(CODES).describe('Stable machine-readable code; see the error table.'),
    request_id: z.string().describe('Also in the X-Request-Id header; quote it when reporting a problem.'),
    param: z.string().optional().describe('The parameter at fault (400).'),
    errors: z.array(z.looseObject({ param: z.string(), code: z.string(), message: z.string() })).optional().describe('Several field errors at once.'),
    provider: z.string().optional().describe('analytics, engine1 or engine2, when a provider is involved.'),
    upstream: z.unknown().optional().describe("Raw proxies' upstream_rejected: the provider's error body."),
  })
  .describe('RFC 9457 problem details. Never contains stack traces, upstream URLs, tokens or keys.');
