// Authorization server metadata (RFC 8414), also served at the OpenID discovery path that MCP clients try
// second. We issue no ID tokens; the OIDC document adds the three fields OIDC discovery parsers require
// (jwks_uri is real, it verifies our access tokens) so strict clients accept it.
import { OAUTH_SCOPES, type OAuthServerConfig } from './oauth-config.ts';
import { TOKEN_ENDPOINT_AUTH_METHODS } from './client-metadata.ts';
import { ACCESS_TOKEN_ALG } from './signing-key.ts';

export function authorizationServerMetadata(config: OAuthServerConfig): Record<string, unknown> {
  return {
    issuer: config.issuer,
    authorization_endpoint: config.endpoints.authorize,
    token_endpoint: config.endpoints.token,
    registration_endpoint: config.endpoints.register,
    revocation_endpoint: config.endpoints.revoke,
    jwks_uri: config.endpoints.jwks,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: false,
    service_documentation: `${config.issuer}/api/v1/docs`,
  };
}

export function openIdConfiguration(config: OAuthServerConfig): Record<string, unknown> {
  return {
    ...authorizationServerMetadata(config),
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [ACCESS_TOKEN_ALG],
  };
}
