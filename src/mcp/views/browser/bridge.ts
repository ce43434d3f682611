// The view's side of the MCP Apps bridge (SEP-1865): JSON-RPC 2.0 over postMessage with the host, which is all
// a view needs (`ui/initialize`, the tool input and result notifications, `tools/call` through the host, size and
// theme). It runs in the browser: every function here is serialized into the view document (view-document.ts),
// so it may use only its parameters and browser globals, never anything else of this module.
//
// Why not ext-apps' `App` class: bundled with its dependencies (client Protocol, zod schemas) it is ~240 kB of
// minified script per view for the same dozen messages; the browser test hosts every view with ext-apps' own
// `AppBridge`, which validates each message this bridge sends.

export interface HostContext {
  theme?: 'light' | 'dark';
  styles?: { variables?: Record<string, string | undefined> };
  locale?: string;
  timeZone?: string;
  toolInfo?: { tool?: { name?: string } };
}

export interface ToolResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface BridgeHandlers {
  toolInput(args: Record<string, unknown>): void;
  toolResult(result: ToolResult): void;
  toolCancelled(reason: string): void;
  contextChanged(context: HostContext): void;
}

export interface Bridge {
  /** Runs the handshake; resolves with the host's context once the view has said it is initialized. */
  connect(handlers: BridgeHandlers): Promise<HostContext>;
  /** A tools/call through the host (which applies the user's credential and may ask the user first). */
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
}

interface RpcMessage {
  jsonrpc?: string;
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

export function createBridge(win: Window, appInfo: { name: string; version: string }): Bridge {
  const PROTOCOL_VERSION = '2026-01-26';
  const pending = new Map<string | number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let handlers: BridgeHandlers | undefined;

  const post = (message: RpcMessage) => win.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      post({ id, method, params });
    });

  function onRequest(message: RpcMessage): void {
    // The host asks before tearing the view down, and may ping; nothing else is served by a view.
    if (message.method === 'ui/resource-teardown' || message.method === 'ping') post({ id: message.id, result: {} });
    else post({ id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
  }

  function onNotification(message: RpcMessage): void {
    const params = message.params ?? {};
    if (!handlers) return;
    if (message.method === 'ui/notifications/tool-input') handlers.toolInput((params.arguments as Record<string, unknown> | undefined) ?? {});
    else if (message.method === 'ui/notifications/tool-result') handlers.toolResult(params as ToolResult);
    else if (message.method === 'ui/notifications/tool-cancelled') handlers.toolCancelled(String(params.reason ?? 'cancelled'));
    else if (message.method === 'ui/notifications/host-context-changed') handlers.contextChanged(params as HostContext);
  }

  win.addEventListener('message', (event: MessageEvent) => {
    // Only the host (the parent frame) speaks to the view.
    if (event.source !== win.parent) return;
    const message = event.data as RpcMessage | null;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.method === undefined && message.id !== undefined) {
      const waiter = pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    } else if (message.method !== undefined && message.id !== undefined) onRequest(message);
    else if (message.method !== undefined) onNotification(message);
  });

  function reportSize(): void {
    let scheduled = false;
    let last = '';
    const measure = () => {
      if (scheduled) return;
      scheduled = true;
      win.requestAnimationFrame(() => {
        scheduled = false;
        const root = win.document.documentElement;
        const saved = root.style.height;
        root.style.height = 'max-content';
        const height = Math.ceil(root.getBoundingClientRect().height);
        root.style.height = saved;
        const width = Math.ceil(win.innerWidth);
        if (`${width}x${height}` === last) return;
        last = `${width}x${height}`;
        post({ method: 'ui/notifications/size-changed', params: { width, height } });
      });
    };
    measure();
    new ResizeObserver(measure).observe(win.document.documentElement);
  }

  return {
    async connect(given) {
      handlers = given;
      const result = (await request('ui/initialize', {
        protocolVersion: PROTOCOL_VERSION,
        appInfo,
        appCapabilities: { availableDisplayModes: ['inline'] },
      })) as { hostContext?: HostContext };
      post({ method: 'ui/notifications/initialized', params: {} });
      reportSize();
      return result.hostContext ?? {};
    },
    async callTool(name, args) {
      return (await request('tools/call', { name, arguments: args })) as ToolResult;
    },
  };
}
