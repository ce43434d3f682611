// The dashboard as a surface: signed in as the demo account over HTTP in-process (the tiny browser stand-in of the
// page tests), the project overview read back into figures: headline values (exact, from data-raw) and their
// change as shown, the main chart's point count, total and peak, the top pages and queries cards, funnel completion.
import { webClient, type WebClient } from '../../dashboard/web-client.ts';
import type { SandboxRuntime } from '../../helpers/sandbox-runtime.ts';

export async function signInDemo(rt: SandboxRuntime): Promise<WebClient> {
  const password = rt.demo.password;
  if (!password.known) throw new Error('the test runtime seeds the demo itself, so its password is known');
  const client = webClient(rt);
  await client.get('/account/sign-in');
  const res = await client.post('/account/sign-in', { email: 'demo@siteline.example', password: password.password, return_to: '/dashboard' });
  if (res.location !== '/dashboard') throw new Error(`demo sign-in failed: ${res.status} ${res.location}`);
  return client;
}

export interface OverviewFigures {
  headline: Record<string, { raw: number; change: string }>;
  charts: Record<string, { points: number; total: number; highest: number }>;
  pages: [string, number, number][];
  queries: [string, number, number][];
  completion: string[];
}

const unescape = (html: string) => html.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
const count = (text: string) => Number(text.replace(/,/g, ''));

export function overviewFigures(html: string): OverviewFigures {
  const headline: OverviewFigures['headline'] = {};
  for (const m of html.matchAll(/data-metric="([^"]+)" data-raw="([^"]+)">[^<]*<\/div><div>(.*?)<\/div><\/div>/g)) {
    const change = /<span class="(?:up|down)">([▲▼]) ([\d.]+)%<\/span>/.exec(m[3]!);
    headline[m[1]!] = { raw: Number(m[2]), change: change ? `${change[1] === '▼' ? '-' : ''}${change[2]}` : 'none' };
  }
  const charts: OverviewFigures['charts'] = {};
  for (const m of html.matchAll(/id="(chart-[a-z]+)"[^>]*data-points="(\d+)"[\s\S]*?total ([\d,]+), highest ([\d,]+) on/g)) {
    charts[m[1]!] = { points: Number(m[2]), total: count(m[3]!), highest: count(m[4]!) };
  }
  const card = (name: string) => {
    const section = new RegExp(`data-card="${name}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';
    return [...section.matchAll(/<tr><td class="name"><a [^>]*>(?:<code[^>]*>)?(.*?)(?:<\/code>)?<\/a><\/td><td class="num" data-raw="([^"]*)">[^<]*<\/td><td class="num" data-raw="([^"]*)">/g)].map((r): [string, number, number] => [unescape(r[1]!), Math.round(Number(r[2])), Math.round(Number(r[3]))]);
  };
  const completion = [...html.matchAll(/<td data-completion>([^<]*)<\/td>/g)].map((m) => m[1]!);
  return { headline, charts, pages: card('pages'), queries: card('queries'), completion };
}
