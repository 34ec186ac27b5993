import type { Known } from './fuzz-requests.js';
import type { RawRequest } from './fuzz-http.js';

/**
 * Requests the fuzz once answered wrongly (a 500, a body that said nothing), kept as they
 * were found and sent on every run: fast-check draws them too seldom to find them again
 * reliably. Each names the fix it checks.
 */
export function foundCases(known: Known): { what: string; request: RawRequest }[] {
  const basic = (user: string) => `Basic ${Buffer.from(`${user}:secret`).toString('base64')}`;
  return [
    {
      // api/oauth/routes.ts basicClientId: decodeURIComponent threw on a lone % (a 500).
      what: 'a token request whose Basic client id is not form-encoded',
      request: { method: 'POST', target: '/oauth2/token', headers: [['Authorization', basic('%')], ['Content-Type', 'application/x-www-form-urlencoded']], body: Buffer.from('grant_type=authorization_code&code=x') },
    },
    {
      what: 'the same at seed 000\'s address',
      request: { method: 'POST', target: '/1.0/oauth/access_token', headers: [['Authorization', basic('%E0%A4%A')], ['Content-Type', 'application/x-www-form-urlencoded']], body: Buffer.from('grant_type=authorization_code&code=x') },
    },
    {
      // api/refused-requests.ts: Node's parser refused it; Fastify answered {"error":"Bad Request","message":"Client Error"}.
      what: 'a request line with a space in the path',
      request: { method: 'GET', target: '/1.0/pro jects', headers: [['Authorization', `Bearer ${known.token}`]] },
    },
    {
      // api/refused-requests.ts: Fastify's own FST_ERR_BAD_URL body.
      what: 'a path that does not decode',
      request: { method: 'GET', target: '/v2/projects/%C0%AF/libraries', headers: [['Authorization', `Bearer ${known.token}`]] },
    },
  ];
}
