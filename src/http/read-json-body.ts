// Reads a JSON request body under a byte limit: 415 for another media type, 413 past the limit, 400 for bad JSON.
import { AppError } from '../errors/app-error.ts';
import { readBodyText } from './read-body-text.ts';

export async function readJsonBody(request: Request, limitBytes: number): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(type)) {
    throw new AppError('unsupported_media_type', `Send the body as application/json (got '${type || 'no Content-Type'}').`);
  }
  const text = await readBodyText(request, limitBytes);
  if (text === undefined) throw tooLarge(limitBytes);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('invalid_json', `The body is not valid JSON: ${(error as Error).message}`);
  }
}

function tooLarge(limitBytes: number): AppError {
  return new AppError('payload_too_large', `The body exceeds ${Math.round(limitBytes / 1024)} KiB.`);
}
