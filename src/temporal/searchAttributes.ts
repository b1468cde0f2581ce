// The keys live beside the workflows, which may import nothing with I/O from src/; the client side reads them here.
export * from '../../workflows/searchAttributes';
