import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { OpenTelemetryWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import type { InjectedSinks, WorkerInterceptors } from '@temporalio/worker';

/**
 * The process's tracing once `startTracing` (tracing.ts) ran, else nothing. This module loads no OpenTelemetry code:
 * the Temporal client and worker ask it for their interceptors and sinks whether or not tracing is on.
 */
export interface ActiveTracing {
  clientInterceptors(): WorkflowClientInterceptor[];
  workerInterceptors(): WorkerInterceptors;
  /** The `exporter` sink the workflow interceptor (tracingWorkflowInterceptors.ts) sends workflow spans to. */
  workerSinks(): InjectedSinks<WorkflowSpanSinks>;
  /** Names the request's server span after its matched route template (`POST /api/jobs/{id}/cancel`), never the raw path. */
  nameServerSpan(method: string, route: string): void;
  /** Ends the span pipeline, exporting what is still buffered. */
  shutdown(): Promise<void>;
}

export type WorkflowSpanSinks = { exporter: OpenTelemetryWorkflowExporter };

let active: ActiveTracing | undefined;

export function setActiveTracing(tracing: ActiveTracing | undefined): void {
  active = tracing;
}

export function activeTracing(): ActiveTracing | undefined {
  return active;
}

/**
 * Workflows started by a traced API carry trace headers and export their spans to the `exporter` sink; a worker
 * without tracing drops them here instead of logging "unregistered external sink" on every workflow task.
 */
const DROP_WORKFLOW_SPANS: InjectedSinks<WorkflowSpanSinks> = {
  exporter: { export: { fn: () => undefined, callDuringReplay: false } },
};

/** The worker's tracing options: the OpenTelemetry interceptors and span sink when tracing is on. */
export function tracingWorkerOptions(): { interceptors?: WorkerInterceptors; sinks: InjectedSinks<WorkflowSpanSinks> } {
  const tracing = active;
  if (!tracing) return { sinks: DROP_WORKFLOW_SPANS };
  return { interceptors: tracing.workerInterceptors(), sinks: tracing.workerSinks() };
}

/** Names the current request's server span by its route (a no-op while tracing is off). */
export function nameServerSpan(method: string, route: string): void {
  active?.nameServerSpan(method, route);
}

/** The Temporal client's interceptors: trace context into workflow headers when tracing is on. */
export function tracingClientInterceptors(): { workflow: WorkflowClientInterceptor[] } | undefined {
  return active ? { workflow: active.clientInterceptors() } : undefined;
}
