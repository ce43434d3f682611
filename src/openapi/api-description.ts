// The top-level description of the OpenAPI document: the decisions a caller needs before the first request.
// Written in the small Markdown subset the docs page renders (## headings, paragraphs, "- " lists, `code`).

export const API_DESCRIPTION = `Read-only JSON API over a site's web analytics and search data. Every endpoint except the raw proxies is a GET returning \`application/json; charset=utf-8\`; the same data is available to AI clients over MCP at \`/api/mcp\` and to internal tools over GraphQL at \`/api/graphql\`.

## Provider words
The public contract uses neutral words for the providers: \`analytics\` (Google Analytics 4), \`engine1\` (Google Search Console) and \`engine2\` (Bing Webmaster Tools). They appear in paths, in \`sp=\` values, in response fields such as \`meta.sources\` and in error bodies (\`provider\`). \`sp\` also accepts the aliases \`google\` and \`bing\`; responses always echo the canonical word.

## Authentication and scopes
Send \`Authorization: Bearer <credential>\` on every request. The credential is an API key (\`sl_live_\` followed by 38 characters; create one with \`siteline keys create\` or on the /account page) or an OAuth access token issued by Siteline. Keys carry scopes: \`read\` (the default, every GET endpoint), \`raw\` (the raw provider proxies) and \`mcp:write\` (creating funnels through MCP). A missing or bad credential is a 401 with \`WWW-Authenticate: Bearer\`; a missing scope is a 403 naming it.

## Periods and time zones
\`period\` is one of \`today\`, \`yesterday\`, \`7days\`, \`28days\` (the default), \`90days\`, \`180days\`, \`365days\`, the calendar periods \`month_to_date\`, \`quarter_to_date\`, \`year_to_date\`, \`last_month\`, \`last_quarter\`, \`last_year\`, or \`custom_START_END\` with inclusive YYYY-MM-DD dates, e.g. \`custom_2026-01-01_2026-01-31\`. Days are calendar days in the project's time zone (\`timezone\` on the project). \`Ndays\` means the N complete days ending yesterday, as the providers' own dashboards count them; \`today\` and the \`*_to_date\` periods run to today so far; \`last_*\` is the whole previous month, quarter or year. Custom ranges must have START <= END, END not after today, START not before 2015-08-14 and span at most 5 years; otherwise the answer is a 400 \`invalid_period\` naming the rule. Every period-dependent response echoes the resolved \`period\` with \`start\`, \`end\` and \`timezone\`.

## Comparisons
\`compare\` is \`previous\` (the same number of days just before), \`year\` (364 days earlier, weekday-aligned) or \`none\`. A calendar period is compared by calendar unit: \`previous\` is the previous month, quarter or year (to date over as many days, clipped to its end), \`year\` the same calendar dates a year earlier. It defaults to \`previous\` on summaries and \`none\` elsewhere. A compared number is an object \`{"value", "previous", "delta", "deltaPct"}\`; \`deltaPct\` is a fraction and null when previous is 0. A timeseries compares bucket by bucket in the period's own buckets: day k of the earlier range counts in the bucket of the period's day k (hours: the same wall-clock hour), so each point's \`previous\` covers exactly its paired days and, for counts, the points' \`previous\` add up to \`total.previous\`.

## Search data
engine1 data lags about two days: its answers carry \`meta.dataThrough\` and a warning when the period reaches into incomplete days. engine2 reports weekly buckets; daily views of it carry a warning. With \`sp=all\` a provider that is not connected is left out and named in \`meta.warnings\`; asking for it alone is a 409 \`source_not_connected\`. Combined rows add clicks and impressions, recompute CTR and weight position by impressions.

## Caching and freshness
Provider reports are cached: realtime 30 s, periods touching today 5 min, periods ending yesterday 1 h, fully historical ranges 24 h. \`meta.cache\` says how an answer was served: \`hit\`, \`miss\`, \`stale\` (served while refreshing, or because the provider failed; with a warning) or \`refresh\` (\`force=1\`). \`meta.fetchedAt\` is when the data left the provider; the \`Cache-Status\` (RFC 9211) and \`Age\` headers say the same. \`force=1\` bypasses and refreshes the cache and is limited to 30 per hour per project. Responses are \`Cache-Control: private, no-store\`.

## Rate limits
Each API key may make 600 requests per minute with bursts of 60 per second (configurable per key; a key's own limit scales its burst to a tenth of it, never below 10 per second or the whole limit if that is smaller). Every response carries \`RateLimit-Policy\` with both windows (e.g. \`"default";q=600;w=60, "burst";q=60;w=1\`) and \`RateLimit\` (e.g. \`"default";r=598;t=42, "burst";r=59;t=1\`: requests left and seconds until each window resets). A 429 \`rate_limited\` adds \`Retry-After\`. Repeated failed authentications from one address are limited too (30 per minute). A spent provider quota is a 429 \`upstream_quota_exhausted\`.

## CSV
Timeseries and breakdown endpoints also answer \`text/csv\` (RFC 4180 with a header row) for \`format=csv\` or \`Accept: text/csv\`. Columns are named after the metric (\`date,sessions\`); compared values become dotted columns (\`sessions.value\`, \`sessions.previous\`, \`sessions.delta\`, \`sessions.deltaPct\`) and per-engine figures \`engine1.clicks\`, \`engine2.clicks\` and so on.

## Errors
Every non-2xx answer is RFC 9457 \`application/problem+json\` with a stable \`code\` and the \`request_id\` (also in \`X-Request-Id\`). Unknown paths are a 404; a known path with the wrong method is a 405 with \`Allow\`. Requests that are not well-formed HTTP never reach an endpoint and are answered the same way: a 400 \`malformed_request\` (an unknown method, a broken request or header line), a 408 \`request_timeout\`, or a 431 \`header_too_large\` when the request line and headers exceed 16 KB. A stored provider credential that the provider rejects is a 424 \`upstream_credential_invalid\` (never a 401, which would blame your key).

## Versioning
This is version 1 under \`/api/v1\`. It grows by adding endpoints, parameters and response fields (clients must ignore fields they do not know); breaking changes only ever come under a new prefix. The MCP endpoint is unversioned; its tools are added to, not changed incompatibly.`;
