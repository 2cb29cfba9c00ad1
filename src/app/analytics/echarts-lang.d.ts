/** ECharts ships its language tables without types; each has the shape of its English one. */
declare module 'echarts/i18n/langFR-obj.js' {
  const lang: Parameters<typeof import('echarts/core').registerLocale>[1];
  export default lang;
}
