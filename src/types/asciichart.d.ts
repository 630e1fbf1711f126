declare module 'asciichart' {
  interface PlotConfig {
    height?: number;
    offset?: number;
    padding?: string;
    colors?: string[];
    format?: (x: number, i: number) => string;
  }
  const asciichart: {
    plot(series: number[] | number[][], config?: PlotConfig): string;
    blue: string;
    green: string;
    red: string;
    yellow: string;
    default: string;
  };
  export default asciichart;
}
