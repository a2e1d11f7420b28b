import { describe, expect, it } from 'vitest';
import { PRIORITY, type Priority, type Task } from '../../src/tasks/definitions.js';
import { createHandlers, type TaskServices } from '../../src/tasks/handlers.js';

describe('AnalyzeBook follow-ups', () => {
  it('queues the poster one priority below the analysis and the metadata refresh (barcode search) below the poster', async () => {
    const followUps: Task[] = [
      { kind: 'GenerateBookThumbnail', bookId: 'b' },
      { kind: 'RefreshBookMetadata', bookId: 'b', seriesId: 's', capabilities: ['ISBN', 'TITLE'] },
      { kind: 'RepairExtension', bookId: 'b', seriesId: 's' },
    ];
    // Only the analyzer is reached by AnalyzeBook.
    const services = { analyzer: { analyzeAndPersist: () => Promise.resolve(followUps) } } as unknown as TaskServices;
    const submitted: { kinds: string[]; priority: Priority | undefined }[] = [];
    await createHandlers(services).AnalyzeBook(
      { kind: 'AnalyzeBook', bookId: 'b', seriesId: 's' },
      {
        priority: PRIORITY.DEFAULT,
        submit: (tasks, priority) => {
          if (tasks.length > 0) submitted.push({ kinds: tasks.map((t) => t.kind), priority });
          return Promise.resolve();
        },
      },
    );
    expect(submitted).toEqual([
      { kinds: ['GenerateBookThumbnail', 'RepairExtension'], priority: PRIORITY.DEFAULT - 1 },
      { kinds: ['RefreshBookMetadata'], priority: PRIORITY.DEFAULT - 2 },
    ]);
  });
});
