import { SEO } from '../thresholds';
import { wordCount } from '../text';
import { error, warn, type SeoRule } from '../types';

export const bodyRules: SeoRule = ({ body }) => {
  const count = wordCount(body.text);
  if (count === 0) return [error('body', 'body_empty', 'The body has no text.')];
  if (count < SEO.bodyMinWords) {
    return [warn('body', 'body_too_short', `The body has ${count} words; pages under ${SEO.bodyMinWords} words rarely rank.`)];
  }
  return [];
};
