/**
 * China's administrative divisions as the region picker's options: province → city → district, from the kept
 * data package china-area-data (the National Bureau of Statistics' codes), not a hand-written list. Loaded on demand
 * (its own chunk, ~116 KB before compression) when an address form opens. Some regions have two levels only (Hong
 * Kong, Macau, cities without districts): their options simply end there.
 */
export interface RegionOption {
  label: string;
  value: string;
  children?: RegionOption[];
}

type AreaData = Record<string, Record<string, string> | undefined>;

function levelOf(data: AreaData, parent: string, depth: number): RegionOption[] {
  return Object.entries(data[parent] ?? {}).map(([code, label]) => {
    const children = depth < 3 ? levelOf(data, code, depth + 1) : [];
    return children.length > 0 ? { label, value: code, children } : { label, value: code };
  });
}

/**
 * The options tree, built once per page.
 *
 * @example const options = await loadRegionOptions(); // [{ label: '北京市', value: '110000', children: [...] }, ...]
 */
export async function loadRegionOptions(): Promise<RegionOption[]> {
  const { default: data } = (await import('china-area-data/data.json')) as { default: AreaData };
  return levelOf(data, '86', 1);
}

/** The separator of the region text the API stores ("浙江省 / 杭州市 / 西湖区"). */
export const REGION_SEPARATOR = ' / ';

/**
 * The region text of the chosen labels.
 *
 * @example regionText(['浙江省', '杭州市', '西湖区']) // '浙江省 / 杭州市 / 西湖区'
 */
export function regionText(labels: readonly string[]): string {
  return labels.join(REGION_SEPARATOR);
}
