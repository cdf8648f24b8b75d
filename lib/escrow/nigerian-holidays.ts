// Nigerian public holidays are declared by the Federal Government (Ministry of Interior), often
// only days ahead, so this list is configuration, not a calendar rule: replace or extend it when
// a declaration differs. Two habits shape it:
// - a fixed holiday that falls on a weekend is followed by a declared weekday off (e.g. Monday
//   26 and Tuesday 27 December 2022 for a Sunday Christmas), listed as a second date;
// - Islamic holidays follow the moon sighting. 2025 dates are as declared; 2026-2028 are
//   projected from the Umm al-Qura calendar and can move by a day once the FG announces them.
//   The two Eid days are the Eid and the next weekday (as with Monday 31 March and Tuesday
//   1 April 2025 for a Sunday Eid-el-Fitr, or Friday 6 and Monday 9 June 2025 for Eid-el-Kabir).
const HOLIDAYS: ReadonlyArray<readonly [date: string, name: string]> = [
  ['2025-01-01', "New Year's Day"],
  ['2025-03-31', 'Eid-el-Fitr'],
  ['2025-04-01', 'Eid-el-Fitr holiday'],
  ['2025-04-18', 'Good Friday'],
  ['2025-04-21', 'Easter Monday'],
  ['2025-05-01', "Workers' Day"],
  ['2025-06-06', 'Eid-el-Kabir'],
  ['2025-06-09', 'Eid-el-Kabir holiday'],
  ['2025-06-12', 'Democracy Day'],
  ['2025-09-05', 'Id-el-Maulud'],
  ['2025-10-01', 'Independence Day'],
  ['2025-12-25', 'Christmas Day'],
  ['2025-12-26', 'Boxing Day'],

  ['2026-01-01', "New Year's Day"],
  ['2026-03-20', 'Eid-el-Fitr (projected)'],
  ['2026-03-23', 'Eid-el-Fitr holiday (projected)'],
  ['2026-04-03', 'Good Friday'],
  ['2026-04-06', 'Easter Monday'],
  ['2026-05-01', "Workers' Day"],
  ['2026-05-27', 'Eid-el-Kabir (projected)'],
  ['2026-05-28', 'Eid-el-Kabir holiday (projected)'],
  ['2026-06-12', 'Democracy Day'],
  ['2026-08-25', 'Id-el-Maulud (projected)'],
  ['2026-10-01', 'Independence Day'],
  ['2026-12-25', 'Christmas Day'],
  ['2026-12-26', 'Boxing Day'],
  ['2026-12-28', 'Boxing Day holiday'],

  ['2027-01-01', "New Year's Day"],
  ['2027-03-09', 'Eid-el-Fitr (projected)'],
  ['2027-03-10', 'Eid-el-Fitr holiday (projected)'],
  ['2027-03-26', 'Good Friday'],
  ['2027-03-29', 'Easter Monday'],
  ['2027-05-01', "Workers' Day"],
  ['2027-05-03', "Workers' Day holiday"],
  ['2027-05-17', 'Eid-el-Kabir (projected)'],
  ['2027-05-18', 'Eid-el-Kabir holiday (projected)'],
  ['2027-06-12', 'Democracy Day'],
  ['2027-06-14', 'Democracy Day holiday'],
  ['2027-08-16', 'Id-el-Maulud (projected)'],
  ['2027-10-01', 'Independence Day'],
  ['2027-12-25', 'Christmas Day'],
  ['2027-12-26', 'Boxing Day'],
  ['2027-12-27', 'Christmas Day holiday'],
  ['2027-12-28', 'Boxing Day holiday'],

  ['2028-01-01', "New Year's Day"],
  ['2028-01-03', "New Year's Day holiday"],
  ['2028-02-28', 'Eid-el-Fitr (projected)'],
  ['2028-02-29', 'Eid-el-Fitr holiday (projected)'],
  ['2028-04-14', 'Good Friday'],
  ['2028-04-17', 'Easter Monday'],
  ['2028-05-01', "Workers' Day"],
  ['2028-05-05', 'Eid-el-Kabir (projected)'],
  ['2028-05-08', 'Eid-el-Kabir holiday (projected)'],
  ['2028-06-12', 'Democracy Day'],
  ['2028-08-03', 'Id-el-Maulud (projected)'],
  ['2028-10-01', 'Independence Day'],
  ['2028-10-02', 'Independence Day holiday'],
  ['2028-12-25', 'Christmas Day'],
  ['2028-12-26', 'Boxing Day'],
];

export const NIGERIAN_PUBLIC_HOLIDAYS: readonly string[] = Object.freeze(HOLIDAYS.map(([date]) => date));

function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const parsed = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2025-02-30 over into March, so a round trip exposes impossible dates.
  return parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day;
}

export function holidaySet(dates: readonly string[]): ReadonlySet<string> {
  for (const date of dates) {
    if (typeof date !== 'string' || !isCalendarDate(date)) {
      throw new RangeError(`Invalid holiday date ${JSON.stringify(date)}: expected a real date as YYYY-MM-DD.`);
    }
  }
  return new Set(dates);
}
