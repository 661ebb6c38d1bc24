// OpenAI's error body, shared by chat completions and the Responses API:
// `{"error":{"message","type","param","code"}}`. Messages follow what api.openai.com sends, so a
// client that shows them to a user is tested against realistic text.
import type { ProviderError } from './shared.js';

type OpenAiError = { message: string; type: string; param: null; code: string | null };

function describe(error: ProviderError): Omit<OpenAiError, 'param'> {
  switch (error.kind) {
    case 'rate_limited':
      return {
        message: `Rate limit reached for requests. Please try again in ${error.retryAfterSeconds}s.`,
        type: 'requests',
        code: 'rate_limit_exceeded',
      };
    case 'overloaded':
      // OpenAI itself answers 503 here; the brief wants 529 on every format, and the status is
      // what clients classify on, so only the text is OpenAI's.
      return {
        message: 'The engine is currently overloaded, please try again later.',
        type: 'server_error',
        code: null,
      };
    case 'unauthorized':
      return {
        message: 'Incorrect API key provided: sk-fake***. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      };
    case 'server_error':
      return {
        message:
          error.message ??
          'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        code: null,
      };
    case 'invalid_json':
      return {
        message: 'We could not parse the JSON body of your request.',
        type: 'invalid_request_error',
        code: null,
      };
    case 'status':
      return {
        message: `Fake upstream error (HTTP ${error.status}).`,
        type: error.status >= 500 ? 'server_error' : 'invalid_request_error',
        code: null,
      };
  }
}

export function openAiErrorBody(error: ProviderError): { error: OpenAiError } {
  const { message, type, code } = describe(error);
  return { error: { message, type, param: null, code } };
}
