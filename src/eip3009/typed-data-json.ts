/** JSON with bigints as decimal strings (typed data may hold uint256 values as bigints). */
export function typedDataJson(typedData: unknown): string {
  return JSON.stringify(typedData, (_key, value) =>
    typeof value === 'bigint' ? value.toString() : value,
  )
}
