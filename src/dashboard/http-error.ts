// An expected refusal inside a dashboard route: the handler answers it as `{"error": message}`
// with its status, and the audit log records it as `<status>: <message>`.
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
