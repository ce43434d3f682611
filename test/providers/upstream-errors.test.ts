import { describe, expect, it } from 'vitest';
import { parseRetryAfter, sanitizeProviderMessage } from '../../src/providers/upstream-errors.ts';

describe('sanitizeProviderMessage', () => {
  it('drops documentation links but keeps the actionable part', () => {
    expect(
      sanitizeProviderMessage(
        'Field pageViews is not a valid metric. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema',
      ),
    ).toBe('Field pageViews is not a valid metric.');
    expect(
      sanitizeProviderMessage(
        "User does not have sufficient permission for site 'https://www.example.com/'. See also: https://support.google.com/webmasters/answer/2451999.",
      ),
    ).toBe("User does not have sufficient permission for site 'https://www.example.com/'.");
  });

  it('masks API URLs that could carry a key or token', () => {
    const out = sanitizeProviderMessage('Bad call to https://ssl.bing.com/webmaster/api.svc/json/GetQueryStats?apikey=SECRET now');
    expect(out).not.toContain('SECRET');
    expect(out).toBe('Bad call to [url] now.');
    expect(sanitizeProviderMessage('x http://h/a?access_token=ya29.zzz')).not.toContain('ya29');
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(5000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
