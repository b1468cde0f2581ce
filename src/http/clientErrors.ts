import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../logger';
import { ApiError, errorBody } from './errors';

/** What Node's parser refuses, as the coded error Koa would have answered; Node's own replies have an empty body. */
function asApiError(err: NodeJS.ErrnoException): ApiError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(431, 'request_header_fields_too_large', `the request line and headers exceed ${http.maxHeaderSize} bytes`);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError(413, 'payload_too_large', 'the chunk extensions of the request body are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'request_timeout', 'the request did not arrive in time');
    default:
      return new ApiError(400, 'bad_request', 'the request is not valid HTTP/1.1');
  }
}

/**
 * The server's `clientError` listener: answers with the usual JSON error body and closes the connection. Nothing
 * of the refused request (its raw bytes may hold credentials) is logged or echoed.
 */
export function answerClientError(logger: Logger) {
  return function onClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
    // A response already under way on this socket, or a socket the peer reset, cannot take an answer.
    const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    const apiError = asApiError(err);
    const body = JSON.stringify(errorBody(apiError, requestId));
    logger.info({ requestId, status: apiError.status, code: apiError.code, parserError: err.code }, 'refused by the HTTP parser');
    socket.end(
      [
        `HTTP/1.1 ${apiError.status} ${http.STATUS_CODES[apiError.status]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${requestId}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  };
}
