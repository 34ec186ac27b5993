import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { requestOrigin } from '../origin.js';
import { findUser } from '../../services/users.js';
import { BCF_VERSIONS, DETAILED_VERSIONS, type BcfVersion } from '../../services/bcf/versions.js';
import { unauthorized } from '../../services/errors.js';

const tags = ['bcf'];

/**
 * Auth info points at the platform's OAuth endpoints of seed 001. `http_basic_supported`
 * is the boolean false (the official schemas' type; the seed writes the string "false",
 * which a client testing truthiness would misread).
 */
const authInfo = (request: FastifyRequest, version: BcfVersion) => {
  const origin = requestOrigin(request);
  return {
    oauth2_auth_url: `${origin}/oauth2/authorize`,
    oauth2_token_url: `${origin}/oauth2/token`,
    ...(version === '2.0' ? {} : { http_basic_supported: false, supported_oauth2_flows: ['authorization_code_grant'] }),
  };
};

/** `/bcf/versions` (2.1, 3.0), `/bcf/version` (2.0) and `/bcf/auth` (2.0): no token needed. */
export async function versionRoutes(app: FastifyInstance) {
  // api_id and api_base_url are the Foundation API's (where 3.0 moved this list); 2.x clients read past them.
  const versions = (request: FastifyRequest) =>
    BCF_VERSIONS.map((version_id) => ({ api_id: 'bcf', version_id, detailed_version: DETAILED_VERSIONS[version_id], api_base_url: `${requestOrigin(request)}/bcf/${version_id}` }));
  app.get('/versions', { schema: { tags } }, async (request) => ({ versions: versions(request) }));
  app.get('/version', { schema: { tags } }, async () => ({ version_id: '2.0', detailed_version: DETAILED_VERSIONS['2.0'] }));
  app.get('/auth', { schema: { tags } }, async (request) => authInfo(request, '2.0'));
}

/** Inside `/bcf/{version}`: the auth info (2.1, 3.0; public) and the current user (with a token). */
export async function serviceRoutes(app: FastifyInstance, ctx: Context, version: BcfVersion, part: 'public' | 'user') {
  if (part === 'public') {
    if (version !== '2.0') app.get('/auth', { schema: { tags } }, async (request) => authInfo(request, version));
    return;
  }
  app.get('/current-user', { schema: { tags } }, async (request) => {
    const user = await findUser(ctx.db, request.auth.userId);
    if (!user) throw unauthorized('The access token\'s user no longer exists');
    return { id: user.email, name: user.name };
  });
}
