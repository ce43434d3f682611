// Serves the views as MCP Apps resources and links tools to them. Every view declares the strictest content
// security policy MCP Apps has (no connect, resource, frame or base-URI domains): hosts then let it load nothing
// and reach nothing but the host bridge; its data arrives only as tool results through the host.
import type { McpServer } from '@modelcontextprotocol/server';
import { registerAppResource, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { viewDocument } from './view-document.ts';
import { VIEWS, type ViewName } from './view-table.ts';

export const VIEW_UI_META = {
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
  prefersBorder: true,
};

export type ViewDocuments = Readonly<Record<ViewName, string>>;

export function createViewDocuments(): ViewDocuments {
  return Object.fromEntries(Object.entries(VIEWS).map(([name, view]) => [name, viewDocument(view)])) as Record<ViewName, string>;
}

/** The `_meta` of a tool whose results a view shows (registerAppTool adds the deprecated flat key older hosts read). */
export function viewToolMeta(name: ViewName): { ui: { resourceUri: string } } {
  return { ui: { resourceUri: VIEWS[name].uri } };
}

export function registerViews(server: McpServer, documents: ViewDocuments): void {
  for (const [name, view] of Object.entries(VIEWS) as [ViewName, (typeof VIEWS)[ViewName]][]) {
    const contents = [{ uri: view.uri, mimeType: RESOURCE_MIME_TYPE, text: documents[name], _meta: { ui: VIEW_UI_META } }];
    registerAppResource(server, `view-${name}`, view.uri, { title: view.title, description: view.description, mimeType: RESOURCE_MIME_TYPE, _meta: { ui: VIEW_UI_META } }, () => ({ contents }));
  }
}
