// Bundled into every workflow (WORKFLOW_INTERCEPTOR_MODULES), so it runs in the workflow sandbox under the same
// determinism rules as workflow code.
//
// A workflow is traced when it was started with trace context (the `_tracer-data` header the client interceptor
// adds only when the starting process traces; see tracing.ts): then the OpenTelemetry workflow interceptors of
// @temporalio/interceptors-opentelemetry run, and their spans go to the worker's `exporter` sink. Any other
// workflow passes straight through and never loads the OpenTelemetry code, so a worker or an API without tracing
// pays nothing. The decision reads the start event's headers only, so a replay makes the same one.
import type {
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptors,
  WorkflowInternalsInterceptor,
  WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';

type OtelWorkflowModule = typeof import('@temporalio/interceptors-opentelemetry/lib/workflow');

/** The header @temporalio/interceptors-opentelemetry carries trace context in. */
const TRACE_HEADER = '_tracer-data';

interface Traced {
  inbound: Required<WorkflowInboundCallsInterceptor>;
  outbound: Required<Omit<WorkflowOutboundCallsInterceptor, 'startTimer'>>;
  internals: WorkflowInternalsInterceptor;
}

function tracedInterceptors(): Traced {
  // Required here, not imported at the top: the bundle then evaluates OpenTelemetry only for a traced workflow.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const otel: OtelWorkflowModule = require('@temporalio/interceptors-opentelemetry/lib/workflow');
  return {
    inbound: new otel.OpenTelemetryInboundInterceptor(),
    outbound: new otel.OpenTelemetryOutboundInterceptor(),
    internals: new otel.OpenTelemetryInternalsInterceptor(),
  };
}

export const interceptors = (): WorkflowInterceptors => {
  let traced: Traced | undefined;
  const inbound: WorkflowInboundCallsInterceptor = {
    execute(input, next) {
      if (input.headers[TRACE_HEADER] !== undefined) traced = tracedInterceptors();
      return traced ? traced.inbound.execute(input, next) : next(input);
    },
    handleSignal: (input, next) => (traced ? traced.inbound.handleSignal(input, next) : next(input)),
    handleUpdate: (input, next) => (traced ? traced.inbound.handleUpdate(input, next) : next(input)),
    validateUpdate: (input, next) => (traced ? traced.inbound.validateUpdate(input, next) : next(input)),
    handleQuery: (input, next) => (traced ? traced.inbound.handleQuery(input, next) : next(input)),
  };
  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input, next) => (traced ? traced.outbound.scheduleActivity(input, next) : next(input)),
    scheduleLocalActivity: (input, next) => (traced ? traced.outbound.scheduleLocalActivity(input, next) : next(input)),
    startChildWorkflowExecution: (input, next) => (traced ? traced.outbound.startChildWorkflowExecution(input, next) : next(input)),
    startNexusOperation: (input, next) => (traced ? traced.outbound.startNexusOperation(input, next) : next(input)),
    signalWorkflow: (input, next) => (traced ? traced.outbound.signalWorkflow(input, next) : next(input)),
    continueAsNew: (input, next) => (traced ? traced.outbound.continueAsNew(input, next) : next(input)),
    getLogAttributes: (input, next) => (traced ? traced.outbound.getLogAttributes(input, next) : next(input)),
    getMetricTags: (input, next) => (traced ? traced.outbound.getMetricTags(input, next) : next(input)),
  };
  const internals: WorkflowInternalsInterceptor = {
    dispose: (input, next) => (traced?.internals.dispose ? traced.internals.dispose(input, next) : next(input)),
  };
  return { inbound: [inbound], outbound: [outbound], internals: [internals] };
};
