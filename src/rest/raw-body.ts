// Responder for operations whose result is a provider's own body (`{status, contentType, body}`): the bytes go out
// unchanged instead of being re-serialised, with the usual headers around them.
export function rawBodyResponse(result: unknown, headers: Record<string, string>): Response {
  const { status, contentType, body } = result as { status: number; contentType: string; body: string };
  return new Response(body, { status, headers: { 'content-type': contentType, 'cache-control': 'private, no-store', ...headers } });
}
