// The messages of a conversation and the tool calls in them: what the agent keeps, the store
// persists and every wire client translates. Plain types, shared by all layers.

export type ContentPart =
  | { readonly type: 'text'; readonly text: string }
  /** Base64 image bytes. */
  | { readonly type: 'image'; readonly mediaType: string; readonly data: string }
  | { readonly type: 'image_url'; readonly url: string };

export type ToolCall = {
  readonly id: string;
  readonly name: string;
  /** Parsed JSON arguments; an empty input is `{}`. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The raw text when the model sent arguments that are not a JSON object (`arguments` is `{}`). */
  readonly invalidArguments?: string;
};

export type Message =
  | { readonly role: 'user'; readonly content: string | readonly ContentPart[] }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls?: readonly ToolCall[];
    }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      readonly name: string;
      readonly content: string;
      readonly isError?: boolean;
    };
