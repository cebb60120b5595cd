// The chart in bench/RESULTS.md, written by hand (no chart library): one
// log–log panel per conversion direction, conversion time against input
// size beside the floor, medians joined by lines, min–max as whiskers.

const palette = { conversion: "#c2410c", floor: "#2563eb" };

function escapeXml(text) {
  return String(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function decades(min, max) {
  const ticks = [];
  for (
    let exponent = Math.floor(Math.log10(min));
    exponent <= Math.ceil(Math.log10(max));
    exponent++
  ) {
    ticks.push(10 ** exponent);
  }
  return ticks;
}

function formatMs(ms) {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * panels: [{ title, points: [{ bytes, conversion: {median,min,max}, floor: {median,min,max} }] }]
 */
export function conversionChart(panels, caption) {
  const panelWidth = 300;
  const panelHeight = 220;
  const margin = { left: 64, right: 24, top: 40, bottom: 48 };
  const columns = Math.min(2, panels.length);
  const rows = Math.ceil(panels.length / columns);
  const cellWidth = panelWidth + margin.left + margin.right;
  const cellHeight = panelHeight + margin.top + margin.bottom;
  const width = columns * cellWidth;
  const height = rows * cellHeight + 44;
  const all = panels.flatMap((panel) => panel.points);
  const times = all.flatMap((point) => [
    point.conversion.min,
    point.conversion.max,
    point.floor.min,
    point.floor.max,
  ]);
  const yTicks = decades(Math.max(0.1, Math.min(...times)), Math.max(...times));
  const [yLow, yHigh] = [Math.log10(yTicks[0]), Math.log10(yTicks[yTicks.length - 1])];
  const bytes = all.map((point) => point.bytes);
  // Half a decade of room either side of the measured sizes.
  const [xLow, xHigh] = [
    Math.log10(Math.min(...bytes)) - 0.5,
    Math.log10(Math.max(...bytes)) + 0.5,
  ];
  const xTicks = decades(10 ** xLow, 10 ** xHigh).filter(
    (tick) => Math.log10(tick) >= xLow && Math.log10(tick) <= xHigh,
  );
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="11">`,
    "<title>txcript: conversion time against input size, per direction, beside the floor</title>",
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
  ];
  panels.forEach((panel, index) => {
    const left = (index % columns) * cellWidth + margin.left;
    const top = Math.floor(index / columns) * cellHeight + margin.top;
    const x = (value) => left + ((Math.log10(value) - xLow) / (xHigh - xLow)) * panelWidth;
    const y = (value) =>
      top + panelHeight - ((Math.log10(value) - yLow) / (yHigh - yLow || 1)) * panelHeight;
    parts.push(
      `<text x="${left + panelWidth / 2}" y="${top - 14}" text-anchor="middle" font-size="13" font-weight="600">${escapeXml(panel.title)}</text>`,
    );
    parts.push(
      `<rect x="${left}" y="${top}" width="${panelWidth}" height="${panelHeight}" fill="none" stroke="#d4d4d4"/>`,
    );
    for (const tick of yTicks) {
      parts.push(
        `<line x1="${left}" x2="${left + panelWidth}" y1="${y(tick)}" y2="${y(tick)}" stroke="#eeeeee"/>`,
      );
      parts.push(
        `<text x="${left - 6}" y="${y(tick) + 4}" text-anchor="end" fill="#525252">${formatMs(tick)}</text>`,
      );
    }
    for (const tick of xTicks) {
      const cx = x(tick).toFixed(1);
      parts.push(
        `<line x1="${cx}" x2="${cx}" y1="${top}" y2="${top + panelHeight}" stroke="#eeeeee"/>`,
      );
      parts.push(
        `<text x="${cx}" y="${top + panelHeight + 16}" text-anchor="middle" fill="#525252">${tick >= 1e6 ? `${tick / 1e6} MB` : `${tick / 1e3} KB`}</text>`,
      );
    }
    parts.push(
      `<text x="${left + panelWidth / 2}" y="${top + panelHeight + 34}" text-anchor="middle" fill="#525252">input size (log scale)</text>`,
    );
    parts.push(
      `<text x="${left - 50}" y="${top + panelHeight / 2}" transform="rotate(-90 ${left - 50} ${top + panelHeight / 2})" text-anchor="middle" fill="#525252">time (log scale)</text>`,
    );
    for (const series of ["floor", "conversion"]) {
      const points = panel.points.filter((point) => point[series] !== undefined);
      const dash = series === "floor" ? ` stroke-dasharray="5 4"` : "";
      parts.push(
        `<polyline fill="none" stroke="${palette[series]}" stroke-width="2"${dash} points="${points.map((point) => `${x(point.bytes).toFixed(1)},${y(point[series].median).toFixed(1)}`).join(" ")}"/>`,
      );
      for (const point of points) {
        const cx = x(point.bytes).toFixed(1);
        const cy = y(point[series].median).toFixed(1);
        parts.push(
          `<line x1="${cx}" x2="${cx}" y1="${y(point[series].min).toFixed(1)}" y2="${y(point[series].max).toFixed(1)}" stroke="${palette[series]}" stroke-width="1"/>`,
        );
        parts.push(
          `<circle cx="${cx}" cy="${cy}" r="3" fill="${palette[series]}"><title>${escapeXml(`${series}: ${point[series].median.toFixed(1)} ms median at ${(point.bytes / 1e6).toFixed(1)} MB`)}</title></circle>`,
        );
        if (series === "conversion") {
          // The ratio to the floor, written beside the point it belongs to.
          const times = (point.conversion.median / point.floor.median).toFixed(1);
          parts.push(
            `<text x="${Number(cx) - 6}" y="${Number(cy) - 8}" text-anchor="end" fill="${palette.conversion}" font-weight="600">${times}×</text>`,
          );
        }
      }
    }
  });
  const legendY = height - 14;
  parts.push(
    `<line x1="${margin.left}" x2="${margin.left + 24}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${palette.conversion}" stroke-width="2"/>`,
  );
  parts.push(
    `<text x="${margin.left + 30}" y="${legendY}">conversion (median, min–max whisker; label = ÷ floor)</text>`,
  );
  parts.push(
    `<line x1="${margin.left + 340}" x2="${margin.left + 364}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${palette.floor}" stroke-width="2" stroke-dasharray="5 4"/>`,
  );
  parts.push(
    `<text x="${margin.left + 370}" y="${legendY}">floor: JSON.parse(input) + JSON.stringify(output)</text>`,
  );
  if (caption) {
    parts.push(
      `<text x="${width - 8}" y="${legendY - 18}" text-anchor="end" fill="#737373">${escapeXml(caption)}</text>`,
    );
  }
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
