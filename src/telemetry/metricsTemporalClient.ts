// @grpc/grpc-js is the transport of @temporalio/client, which has no metrics of its own (1.24).
import { InterceptingCall, status as grpcStatus, type Interceptor } from '@grpc/grpc-js';
import { defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { boundedLabel, domainMetrics } from './metrics';

/**
 * Counts and times every call of the Temporal client by gRPC operation (`StartWorkflowExecution`, …) and status,
 * each attempt on its own (it sits inside the SDK's retry interceptor).
 */
export const temporalClientMetrics: Interceptor = (options, nextCall) => {
  const method = options.method_definition.path;
  const operation = boundedLabel('temporal_client:operation', method.slice(method.lastIndexOf('/') + 1) || 'unknown');
  const started = process.hrtime.bigint();
  let counted = false;
  return new InterceptingCall(nextCall(options), {
    start(metadata, _listener, next) {
      next(metadata, {
        onReceiveStatus(status, nextStatus) {
          if (!counted) {
            counted = true;
            domainMetrics.temporalClientRequests.inc({ operation, status: grpcStatus[status.code] ?? String(status.code) });
            domainMetrics.temporalClientDuration.observe({ operation }, Number(process.hrtime.bigint() - started) / 1e9);
          }
          nextStatus(status);
        },
      });
    },
  });
};

/** The client connection's interceptors: the SDK's default retries (replaced when a list is given), then the metrics. */
export function temporalClientGrpcInterceptors(): Interceptor[] {
  return [makeGrpcRetryInterceptor(defaultGrpcRetryOptions()), temporalClientMetrics];
}
