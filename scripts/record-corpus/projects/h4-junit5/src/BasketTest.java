import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class BasketTest {
    @Test
    void countsItems() {
        assertEquals(2, new Basket().add("a").add("b").size());
    }

    @Test
    @DisplayName("keeps the case — Äpfel")
    void keepsCase() {
        assertEquals(List.of("Äpfel"), new Basket().add("Äpfel").items());
    }

    @Nested
    class WhenEmpty {
        @Test
        void firstFails() {
            new Basket().first();
        }

        @Test
        void isEmpty() {
            assertTrue(new Basket().size() == 0, "an empty basket has no items");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"x", "YY"})
    void oneChar(String s) {
        assertEquals(1, s.length());
    }
}
