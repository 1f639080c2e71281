// Merging segments: live documents are copied in order with their metadata, and postings are
// concatenated term by term with document numbers remapped. No text is re-read or re-analysed,
// so a merge costs a fraction of indexing the same files.
import { FIELD_COUNT } from './fields';
import type { Segment } from './segment';
import { pathTermsOf, SegmentBuilder } from './segmentBuilder';

export interface MergeInput {
  segment: Segment;
  /** deleted[doc] === 1 for tombstoned documents. */
  deleted: Uint8Array;
}

/** Writes one segment holding the live documents of `inputs`, in input order. */
export function mergeSegments(inputs: readonly MergeInput[]): Uint8Array {
  const builder = new SegmentBuilder();
  // newDoc[i][doc] = number in the merged segment, or -1 when deleted.
  const remaps: Int32Array[] = [];
  for (const { segment, deleted } of inputs) {
    const remap = new Int32Array(segment.docCount).fill(-1);
    const symbols = segment.symbols();
    const contexts = segment.contexts();
    const lengths = segment.allFieldLengths();
    for (const file of segment.files) {
      let live = 0;
      for (let d = file.firstDoc; d < file.firstDoc + file.docCount; d++) if (!deleted[d]) live++;
      if (live === 0) continue;
      const { firstDoc: _f, docCount: _c, pathLength: _p, ...input } = file;
      // File-level path postings depend on the path alone: recomputing them is exact and cheap.
      const fileIndex = builder.appendFile(input, live, pathTermsOf(file.path));
      for (let d = file.firstDoc; d < file.firstDoc + file.docCount; d++) {
        if (deleted[d]) continue;
        remap[d] = builder.appendDoc({
          fileIndex,
          startLine: segment.docStart.at(d),
          endLine: segment.docEnd.at(d),
          startByte: segment.startByteOf(d),
          kind: segment.docKind.at(d),
          flags: segment.docFlags.at(d),
          fieldLengths: lengths.subarray(d * FIELD_COUNT, (d + 1) * FIELD_COUNT),
          symbol: symbols[d] as string,
          context: contexts[d] as string,
          record: segment.rawRecord(d),
          id: segment.id(d),
        });
      }
    }
    remaps.push(remap);
  }

  // Occurrences, name by name within each input: documents stay ascending per name, as the
  // inputs' documents come in input order.
  inputs.forEach(({ segment }, s) => {
    const remap = remaps[s] as Int32Array;
    for (const list of segment.occurrenceTable().all()) {
      for (let i = 0; i < list.docs.length; ) {
        const doc = list.docs[i] as number;
        let j = i + 1;
        while (j < list.docs.length && list.docs[j] === doc) j++;
        const nd = remap[doc] as number;
        if (nd >= 0) builder.appendOccurrences(list.name, nd, list.lineOffsets, list.columns, list.roles, i, j);
        i = j;
      }
    }
  });

  for (const { segment } of inputs) segment.loadAllPostings();
  // Union of dictionaries; each term's postings appended segment by segment keeps docs ascending.
  const termSources = new Map<string, Array<[number, number]>>();
  inputs.forEach(({ segment }, s) => {
    segment.terms().forEach((term, t) => {
      let list = termSources.get(term);
      if (!list) termSources.set(term, (list = []));
      list.push([s, t]);
    });
  });
  for (const [term, sources] of termSources) {
    for (const [s, t] of sources) {
      const segment = (inputs[s] as MergeInput).segment;
      const remap = remaps[s] as Int32Array;
      const { docs, tfs } = segment.readPostings(t);
      for (let i = 0; i < docs.length; i++) {
        const nd = remap[docs[i] as number] as number;
        if (nd >= 0) builder.appendPosting(term, nd, tfs, i * FIELD_COUNT);
      }
    }
  }
  return builder.build();
}
