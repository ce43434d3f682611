// Reads a JSON request body under a byte limit: 415 for another media type, 413 past the limit, 400 for bad JSON.
import { AppError } from '../errors/app-error.ts';

export async function readJsonBody(request: Request, limitBytes: number): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(type)) {
    throw new AppError('unsupported_media_type', `Send the body as application/json (got '${type || 'no Content-Type'}').`);
  }
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge(limitBytes);
  const text = await readTextWithLimit(request, limitBytes);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('invalid_json', `The body is not valid JSON: ${(error as Error).message}`);
  }
}

async function readTextWithLimit(request: Request, limitBytes: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel();
      throw tooLarge(limitBytes);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function tooLarge(limitBytes: number): AppError {
  return new AppError('payload_too_large', `The body exceeds ${Math.round(limitBytes / 1024)} KiB.`);
}
