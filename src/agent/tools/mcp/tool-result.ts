// What an MCP tool's answer becomes for the model. Iris tool results are text, so text parts are
// joined, an embedded resource gives its text, and what cannot be text (images, audio, binary
// resources) becomes a one-line note saying what was there, so the model knows it was not lost.

export type McpContentPart = { readonly type: string; readonly [key: string]: unknown };

export type McpCallAnswer = {
  readonly content?: readonly McpContentPart[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
};

export type McpToolText = { readonly ok: boolean; readonly content: string };

/** The same size as the terminal's output cap, for the same reason: one answer must not fill the context. */
export const MCP_RESULT_MAX_CHARS = 64 * 1024;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function approxBytes(base64: string | undefined): string {
  return base64 === undefined ? 'unknown size' : `${Math.floor((base64.length * 3) / 4)} bytes`;
}

function partText(part: McpContentPart): string {
  switch (part.type) {
    case 'text':
      return str(part.text) ?? '';
    case 'image':
    case 'audio':
      return `[${part.type} (${str(part.mimeType) ?? 'unknown type'}, ${approxBytes(str(part.data))}) returned by the tool; not shown as text]`;
    case 'resource': {
      const resource = (part.resource ?? {}) as Record<string, unknown>;
      const text = str(resource.text);
      if (text !== undefined) return text;
      return `[binary resource ${str(resource.uri) ?? ''} (${str(resource.mimeType) ?? 'unknown type'}, ${approxBytes(str(resource.blob))}); not shown]`;
    }
    case 'resource_link':
      return `[resource link: ${str(part.uri) ?? ''}${str(part.name) ? ` (${str(part.name)})` : ''}]`;
    default:
      return `[content of type ${part.type}; not shown]`;
  }
}

export function mapMcpResult(answer: McpCallAnswer): McpToolText {
  const parts = answer.content ?? [];
  let text = parts.map(partText).filter((t) => t !== '').join('\n');
  // A tool may answer with structured content only (its output schema).
  if (text === '' && answer.structuredContent !== undefined) text = JSON.stringify(answer.structuredContent);
  if (text === '') text = '(no output)';
  if (text.length > MCP_RESULT_MAX_CHARS) {
    text = `${text.slice(0, MCP_RESULT_MAX_CHARS)}\n[output cut at ${MCP_RESULT_MAX_CHARS} characters of ${text.length}]`;
  }
  return { ok: answer.isError !== true, content: text };
}
