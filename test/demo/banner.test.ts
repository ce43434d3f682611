// The start banner is a newcomer's first screen: where the API, docs and dashboard are, and in the demo how to sign
// in and where the sandbox's Bing key is (the dashboard asks for it when connecting Bing).
import { describe, expect, it } from 'vitest';
import { printBanner } from '../../src/demo/banner.ts';
import type { DemoUpstream } from '../../src/demo/demo-upstream.ts';
import type { RunningServer } from '../../src/server.ts';

function bannerOf(demo: Partial<DemoUpstream> | undefined): string {
  let text = '';
  const running = { url: 'http://127.0.0.1:3000/', runtime: { demo, metrics: undefined } } as unknown as RunningServer;
  printBanner({ write: (chunk: string) => (text += chunk) }, running);
  return text;
}

describe('the start banner', () => {
  it('names the dashboard next to the API', () => {
    expect(bannerOf(undefined)).toMatch(/^ {2}dashboard +http:\/\/127\.0\.0\.1:3000\/dashboard/m);
  });

  it('in the demo: the sign-in, and where the sandbox’s Bing key is', () => {
    const text = bannerOf({
      sandboxUrl: 'http://127.0.0.1:4010',
      bingKeyFile: 'data/sandbox-credentials/bing-api-key.txt',
      seeded: { accountId: 'a', apiKey: 'sl_live_x', keyFile: 'data/demo-api-key', password: { known: true, password: 'pw', file: 'data/demo-password' }, projectKeys: ['acme-shop'] },
    });
    expect(text).toContain('demo account  demo@siteline.example / pw');
    expect(text).toMatch(/sign in at http:\/\/127\.0\.0\.1:3000\/dashboard/);
    expect(text).toMatch(/Bing key +data\/sandbox-credentials\/bing-api-key\.txt/);
  });
});
