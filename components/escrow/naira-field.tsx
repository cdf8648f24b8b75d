import type { ComponentProps } from 'react';
import { TextField } from '../ui/field';
import { naira } from './format';

type NairaFieldProps = Omit<ComponentProps<typeof TextField>, 'type' | 'inputMode' | 'step' | 'min' | 'max'> & {
  min?: number;
  max?: number;
  /** The words when the amount is out of bounds; by default the bounds themselves. */
  rangeError?: string;
};

/** A required amount in naira, to the kobo, within its bounds: the form names the bounds when the amount is outside them. */
export function NairaField({ min = 0.01, max, rangeError, ...field }: NairaFieldProps) {
  const bounds = max === undefined ? `Enter an amount of at least ${naira(min)}.` : `must be between ${naira(min)} and ${naira(max)}`;
  return <TextField type="number" inputMode="decimal" step="0.01" required min={min} max={max} data-range-error={rangeError ?? bounds} {...field} />;
}
