import { expect, type Locator } from '@playwright/test';

/**
 * Reaches for a picker whose options are asked for on intent (focus), as a person does before choosing, until its
 * options have arrived: a focus before the page's code is live is not seen, so it is made again.
 */
export async function reachFor(select: Locator): Promise<void> {
  await expect(async () => {
    await select.blur();
    await select.focus();
    await expect(select.locator('option').nth(1)).toBeAttached({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}
