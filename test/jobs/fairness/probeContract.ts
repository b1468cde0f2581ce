import { defineWorkflow } from '../../../workflows/defineWorkflow';

export interface ProbeActivities {
  probeWork(label: string): Promise<void>;
}

export const fairnessProbeContract = defineWorkflow<[string], string>('fairnessProbeWorkflow', 'test_fairness_probe');
